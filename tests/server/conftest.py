import httpx
import pytest

from tests.server.support import ServerThread


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def server(request):
    """A real server on free ports, once with the embedded SQLite store, once with Redis."""
    store = {"redis_url": request.getfixturevalue("redis_url")} if request.param == "redis" else {}
    with ServerThread(max_body=16 * 1024, snapshot_every=5, **store) as s:
        yield s


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.http, timeout=10) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
