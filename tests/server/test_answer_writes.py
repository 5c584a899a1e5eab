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
