"""CVE-2025-43859: h11 before 0.16.0 accepts a chunked body whose chunks end in anything but CRLF.

After a chunk's data, HTTP/1.1 requires CRLF. h11 0.14.0 throws the next two bytes away unread,
so ``3\\r\\nxxx__0\\r\\n\\r\\n`` is accepted as the complete body ``xxx``, while a peer that reads
up to the next CRLF sees a different message: the disagreement that request smuggling uses.
Written for PatchProof from the advisory's description, not taken from upstream's tests.
"""

import h11
import pytest

REQUEST_HEAD = (
    b"POST /upload HTTP/1.1\r\n"
    b"Host: example.com\r\n"
    b"Transfer-Encoding: chunked\r\n"
    b"\r\n"
)
RESPONSE_HEAD = (
    b"HTTP/1.1 200 OK\r\n"
    b"Transfer-Encoding: chunked\r\n"
    b"\r\n"
)


def read_all(conn, data):
    """Feed ``data`` at once and collect events until h11 needs more data or the message ends."""
    conn.receive_data(data)
    events = []
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA or event is h11.PAUSED:
            return events
        events.append(event)
        if isinstance(event, h11.EndOfMessage):
            return events


def test_server_refuses_chunk_not_ended_by_crlf():
    server = h11.Connection(h11.SERVER)
    with pytest.raises(h11.RemoteProtocolError):
        read_all(server, REQUEST_HEAD + b"3\r\nxxx__0\r\n\r\n")


def test_client_refuses_chunk_not_ended_by_crlf():
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method="GET", target="/", headers=[("Host", "example.com")]))
    client.send(h11.EndOfMessage())
    with pytest.raises(h11.RemoteProtocolError):
        read_all(client, RESPONSE_HEAD + b"5\r\nhelloXY0\r\n\r\n")
