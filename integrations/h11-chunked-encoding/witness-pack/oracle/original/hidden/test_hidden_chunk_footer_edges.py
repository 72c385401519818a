"""Edge cases of the chunk footer check that a fix must also get right (hidden from the candidate).

The footer must be checked byte by byte whatever way the bytes arrive: one at a time over
several reads, a right first byte followed by a wrong second one, a bare LF. Valid bodies must
still decode the same, whole or a byte at a time, with chunk extensions and trailers.
Written for PatchProof, independent of upstream's tests.
"""

import h11
import pytest

REQUEST_HEAD = (
    b"POST /upload HTTP/1.1\r\n"
    b"Host: example.com\r\n"
    b"Transfer-Encoding: chunked\r\n"
    b"\r\n"
)


def feed(data, step):
    """Feed a request to a new server connection ``step`` bytes at a time; return body and end."""
    server = h11.Connection(h11.SERVER)
    body = b""
    trailers = None
    for start in range(0, len(data), step):
        server.receive_data(data[start:start + step])
        while True:
            event = server.next_event()
            if event is h11.NEED_DATA:
                break
            if isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                trailers = list(event.headers)
                return body, trailers, server
    return body, trailers, server


@pytest.mark.parametrize("step", [1, 2, 3, 7], ids=lambda step: f"step{step}")
@pytest.mark.parametrize(
    "bad_body",
    [
        b"3\r\nxxx\rX0\r\n\r\n",
        b"3\r\nxxxX\n0\r\n\r\n",
        b"3\r\nxxx\n0\r\n\r\n",
        b"4\r\nabcd\r\n3\r\nxyz\n\n0\r\n\r\n",
    ],
    ids=["cr-then-wrong-byte", "wrong-byte-then-lf", "bare-lf", "second-chunk-footer"],
)
def test_bad_footer_refused_however_it_is_split(bad_body, step):
    with pytest.raises(h11.RemoteProtocolError):
        feed(REQUEST_HEAD + bad_body, step)


@pytest.mark.parametrize("step", [1, 2, 5, 1000], ids=lambda step: f"step{step}")
def test_valid_body_decodes_the_same_however_it_is_split(step):
    body = (
        b"4;name=value\r\nWiki\r\n"
        b"5\r\npedia\r\n"
        b"E\r\n in\r\n\r\nchunks.\r\n"
        b"0\r\n"
        b"Expires: never\r\n"
        b"\r\n"
    )
    data, trailers, server = feed(REQUEST_HEAD + body, step)
    assert data == b"Wikipedia in\r\n\r\nchunks."
    assert trailers == [(b"expires", b"never")]
    assert server.their_state is h11.DONE


def test_refused_footer_leaves_the_connection_in_error():
    server = h11.Connection(h11.SERVER)
    server.receive_data(REQUEST_HEAD + b"2\r\nok!!0\r\n\r\n")
    with pytest.raises(h11.RemoteProtocolError):
        for _ in range(10):  # bounded: a complete message ends in PAUSED, not NEED_DATA
            if server.next_event() in (h11.NEED_DATA, h11.PAUSED):
                break
    assert server.their_state is h11.ERROR
