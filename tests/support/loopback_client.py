"""A lean HTTP/1.1 keep-alive client on asyncio streams, for load tests on loopback.

httpx spends about a millisecond of CPU per request; on 2 cores that made the client, not the server,
the bottleneck (about 300 requests a second, a few requests in flight). This one costs a fraction of
that, so 16 clients keep 16 requests in flight against the server.
"""

import asyncio
import json


class Connection:
    """One keep-alive connection; `request` sends and reads one exchange at a time."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: application/json"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
        try:
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
            return await self._response()
        except BaseException:
            self.close()
            raise

    async def _response(self) -> tuple[int, bytes]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length, chunked, close = 0, False, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            body = bytearray()
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                body += (await self.reader.readexactly(size + 2))[:-2]
                if size == 0:
                    break
        else:
            body = await self.reader.readexactly(length)
        if close:
            self.close()
        return status, bytes(body)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
