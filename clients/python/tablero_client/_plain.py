"""Output for a terminal that is not UTF-8 (LANG=C without UTF-8 coercion, a latin-1 locale): `»`
is written `>>`, `·` `.`, what has no plain form `?`, instead of a UnicodeEncodeError traceback."""

from __future__ import annotations

import codecs
import sys

# What a terminal that cannot show them (LANG=C without UTF-8, a latin-1 locale) is sent instead.
PLAIN = {"»": ">>", "«": "<<", "—": "-", "–": "-", "…": "...", "“": '"', "”": '"', "‘": "'", "’": "'",
         "·": ".", "•": "*", "─": "-", "━": "=", "│": "|", "×": "x", "→": "->", "›": ">", "←": "<-", "✓": "v"}


def _plain(e: UnicodeError) -> tuple[str, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    out = []
    for ch in e.object[e.start:e.end]:
        try:
            ch.encode(e.encoding)
            out.append(ch)
        except UnicodeEncodeError:
            out.append(PLAIN.get(ch, "?"))
    return "".join(out), e.end


codecs.register_error("tablero-plain", _plain)


def _encoding(stream) -> str:
    return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name


def plain_output() -> None:
    """stdout and stderr write what their encoding cannot as `tablero-plain` puts it."""
    for stream in (sys.stdout, sys.stderr):
        if not _encoding(stream).startswith("utf") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="tablero-plain")


class PlainStdout:
    """sys.stdout (looked up at each write: patch_stdout replaces it) for a terminal that is not UTF-8.
    Under patch_stdout prompt_toolkit encodes the text itself and writes `?` for every such character."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding

    @classmethod
    def wrap(cls) -> PlainStdout | None:
        """A wrapper for `Console(file=)`, or None (sys.stdout as it is) when it is UTF-8."""
        encoding = _encoding(sys.stdout)
        return None if encoding.startswith("utf") else cls(encoding)

    def write(self, text: str) -> int:
        return sys.stdout.write(text.encode(self.encoding, "tablero-plain").decode(self.encoding))

    def flush(self) -> None:
        sys.stdout.flush()

    def isatty(self) -> bool:
        return sys.stdout.isatty()

    def fileno(self) -> int:
        return sys.stdout.fileno()
