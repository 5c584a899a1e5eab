"""An answer's status line and headers go out with its body in one write (server/http/
slow_clients.py, _Unchunked): uvicorn writes them at http.response.start and the body at
http.response.body, which would be two system calls and two segments per answer. What is held
must never be lost, reordered or left unsent: it goes out with the next write, at the loop's
next ready callbacks when nothing follows (HEAD, 204, an SSE stream's opening), or before a
close. Checked on a real socket transport (a socketpair read by the test), and end to end on a
real server for the answers that have no body."""

from __future__ import annotations

import asyncio
import socket

from tablero.server.http.slow_clients import _Requests, _Unchunked

HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n"


class _Counting(asyncio.Protocol):
    pass


async def _pair() -> tuple[asyncio.Transport, socket.socket, list[bytes]]:
    """A real transport over one end of a socketpair; its write() calls are counted."""
    a, b = socket.socketpair()
    b.setblocking(False)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_accepted_socket(_Counting, a)
    calls: list[bytes] = []
    real_write = transport.write

    class Seen:  # the transport as _Unchunked sees it, with its writes recorded
        def write(self, data: bytes) -> None:
            calls.append(bytes(data))
            real_write(data)

        def __getattr__(self, name: str):  # noqa: ANN204
            return getattr(transport, name)

    return Seen(), b, calls  # type: ignore[return-value]


async def _read(b: socket.socket, n: int) -> bytes:
    loop = asyncio.get_running_loop()
    got = b""
    while len(got) < n:
        got += await asyncio.wait_for(loop.sock_recv(b, 65536), 5)
    return got


def test_headers_and_body_leave_in_one_write() -> None:
    async def main() -> None:
        t, b, calls = await _pair()
        w = _Unchunked(t, _Requests(), asyncio.get_running_loop())
        w.write(HEAD)
        assert calls == []  # held
        w.write(b"{}")
        assert calls == [HEAD + b"{}"]
        assert await _read(b, len(HEAD) + 2) == HEAD + b"{}"
        # the next answer on the same connection likewise
        w.write(HEAD)
        w.write(b"[]")
        assert calls[1:] == [HEAD + b"[]"]
        t.close()
        b.close()

    asyncio.run(main())


def test_headers_without_a_body_are_sent_on_the_next_turn_of_the_loop() -> None:
    async def main() -> None:
        t, b, calls = await _pair()
        w = _Unchunked(t, _Requests(), asyncio.get_running_loop())
        head = b"HTTP/1.1 204 No Content\r\ndate: x\r\n\r\n"
        w.write(head)
        assert calls == []
        await asyncio.sleep(0)
        assert calls == [head]
        assert await _read(b, len(head)) == head
        t.close()
        b.close()

    asyncio.run(main())


def test_close_sends_what_is_held_first() -> None:
    async def main() -> None:
        t, b, calls = await _pair()
        w = _Unchunked(t, _Requests(), asyncio.get_running_loop())
        w.write(HEAD)
        w.close()
        assert calls == [HEAD]
        assert await _read(b, len(HEAD)) == HEAD
        b.close()

    asyncio.run(main())


def test_a_body_that_looks_like_headers_keeps_its_order() -> None:
    """Bytes of a body that happen to look like a header block are only held, never reordered."""
    async def main() -> None:
        t, b, calls = await _pair()
        w = _Unchunked(t, _Requests(), asyncio.get_running_loop())
        w.write(HEAD)
        w.write(b"HTTP/1.1 x\r\n\r\n")  # a body (content-length 14 in a real answer)
        w.write(b"tail")
        await asyncio.sleep(0)
        want = HEAD + b"HTTP/1.1 x\r\n\r\n" + b"tail"
        assert b"".join(calls) == want
        assert await _read(b, len(want)) == want
        t.close()
        b.close()

    asyncio.run(main())


def test_headers_that_declare_a_body_wait_for_it_without_a_scheduled_write() -> None:
    """The body follows a declared length (uvicorn writes it, or closes): nothing is scheduled
    for such a header block, and it leaves with the body however late that comes."""
    async def main() -> None:
        t, b, calls = await _pair()
        w = _Unchunked(t, _Requests(), asyncio.get_running_loop())
        w.write(HEAD)
        for _ in range(3):
            await asyncio.sleep(0)
        assert calls == []
        w.write(b"{}")
        assert calls == [HEAD + b"{}"]
        t.close()
        b.close()

    asyncio.run(main())


def test_after_a_head_request_a_declared_length_is_not_waited_for() -> None:
    """A HEAD's answer declares the GET's length and has no body: once the connection has seen
    a HEAD request, every header block goes out on the next turn of the loop."""
    import httptools

    async def main() -> None:
        t, b, calls = await _pair()
        requests = _Requests()
        requests.parser = httptools.HttpRequestParser(requests)
        requests.parser.feed_data(b"HEAD /v1/engines HTTP/1.1\r\nhost: x\r\n\r\n")
        w = _Unchunked(t, requests, asyncio.get_running_loop())
        w.write(HEAD)
        await asyncio.sleep(0)
        assert calls == [HEAD]
        assert await _read(b, len(HEAD)) == HEAD
        t.close()
        b.close()

    asyncio.run(main())


def test_a_real_server_answers_head_then_get_on_one_connection() -> None:
    from tests.server.support import ServerThread

    with ServerThread() as s:
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=5) as c:
            c.sendall(b"HEAD /v1/engines HTTP/1.1\r\nhost: x\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += c.recv(65536)
            assert head.startswith(b"HTTP/1.1 200 ") and b"\r\ncontent-length: " in head.lower()
            assert head.endswith(b"\r\n\r\n")  # no body
            c.sendall(b"GET /v1/engines HTTP/1.1\r\nhost: x\r\n\r\n")
            got = b""
            while b"\r\n\r\n" not in got:
                got += c.recv(65536)
            top, _, body = got.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in top.split(b"\r\n") if line.lower().startswith(b"content-length")))
            while len(body) < length:
                body += c.recv(65536)
            assert top.startswith(b"HTTP/1.1 200 ") and b'"engines"' in body
