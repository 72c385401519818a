package reproduction

// PatchProof observation helper for sealed Go tests (the generic sealed-oracle form, see
// docs/witness-pack.md). Copy this file next to the pack's sealed _test.go files, with the package
// clause of those files. It holds no expected value: a test calls observe(t, id, func() any {...}),
// which prints one line, PATCHPROOF-OBS/1 <nonce> {"case": id, "value": <JSON>}, and the host
// compares it with the pack's oracle file, which never enters the container.

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The nonce of this run: PatchProof stages it beside the phase's tests, in the folder go test
// runs the test binary in.
var patchproofObsPrefix = func() string {
	data, err := os.ReadFile("patchproof-oracle.nonce")
	if err != nil {
		return "PATCHPROOF-OBS/1 missing-nonce "
	}
	return "PATCHPROOF-OBS/1 " + strings.TrimSpace(string(data)) + " "
}()

// The stream the host reads: the stdout of the run's first process. The test binary runs in its
// package folder and its own stdout goes to go test (and from there into -json events); go test
// runs in the run's working folder, so the helper climbs from its parent to the topmost ancestor
// working in that same folder (Docker's init, or the process the runner started).
var patchproofObsStream = func() *os.File {
	// First choice: fd 9, which PatchProof's go harness keeps open on the run's stdout for this
	// helper (go test passes inherited descriptors on to the test binary). Only a pipe or a
	// terminal counts, so a file the tests opened as fd 9 is never written to.
	if stream, err := os.OpenFile("/proc/self/fd/9", os.O_WRONLY|os.O_APPEND, 0); err == nil {
		if info, err := stream.Stat(); err == nil && info.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) != 0 {
			return stream
		}
		stream.Close()
	}
	parentOf := func(pid int) int {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return 0
		}
		text := string(stat)
		fields := strings.Fields(text[strings.LastIndex(text, ")")+1:])
		if len(fields) < 2 {
			return 0
		}
		ppid, _ := strconv.Atoi(fields[1])
		return ppid
	}
	cwdOf := func(pid int) string {
		cwd, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
		return cwd
	}
	top := os.Getppid()
	folder := cwdOf(top)
	if folder == "" {
		return os.Stdout
	}
	for {
		ppid := parentOf(top)
		if ppid <= 0 || cwdOf(ppid) != folder {
			break
		}
		top = ppid
	}
	stream, err := os.OpenFile("/proc/"+strconv.Itoa(top)+"/fd/1", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return os.Stdout
	}
	return stream
}()

// obsErr is an error as an observable value: null for nil, else {"$error": its message}.
func obsErr(err error) any {
	if err == nil {
		return nil
	}
	return map[string]string{"$error": err.Error()}
}

func patchproofObsEmit(id string, value any) {
	if err, ok := value.(error); ok {
		value = obsErr(err)
	}
	line, err := json.Marshal(map[string]any{"case": id, "value": value})
	if err != nil {
		line, _ = json.Marshal(map[string]any{"case": id, "value": map[string]string{"$unencodable": fmt.Sprintf("%T", value)}})
	}
	patchproofObsStream.Write([]byte(patchproofObsPrefix + string(line) + "\n"))
}

// observe records the value compute returns as case id. A panic is observed as
// {"$raised": "panic", "message": …} and fails the test, without stopping the test binary.
func observe(t *testing.T, id string, compute func() any) {
	t.Helper()
	value, raised := func() (value any, raised any) {
		defer func() { raised = recover() }()
		return compute(), nil
	}()
	if raised != nil {
		patchproofObsEmit(id, map[string]string{"$raised": "panic", "message": fmt.Sprint(raised)})
		t.Errorf("%s: the observed call panicked: %v", id, raised)
		return
	}
	patchproofObsEmit(id, value)
}
