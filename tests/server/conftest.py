import httpx
import pytest

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def server():
    with ServerThread(max_body=16 * 1024, snapshot_every=5) as s:
        yield s


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.http, timeout=10) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
