"""A cache hit over HTTP is sent as the bytes this process already has (issue 6: bench/http.py), and it is
the same answer, filed the same way, as the path that builds it."""

from fastapi.testclient import TestClient

from service import engine
from service.http.app import create_app
from service.config import load as load_settings

TEXT = "with TPUs at K2 or DSV3 scale you get excellent MFU without PP"
ALICE, BOB = "alice-token-0123456789", "bob-token-9876543210"


def test_the_fast_hit_is_the_same_object_as_the_built_one(unjargon_home):
    with TestClient(create_app(load_settings(backend="offline", home=unjargon_home))) as client:
        made = client.post("/v1/explain", json={"text": TEXT})
        engine._hits.clear()
        built = client.post("/v1/explain", json={"text": TEXT})  # read from the store, through the engine
        fast = client.post("/v1/explain", json={"text": TEXT})  # from this process's memory, as bytes
        assert fast.headers["content-type"] == "application/json"
        assert list(fast.json()) == list(built.json())
        same = lambda body: {k: v for k, v in body.items() if k != "conversation_id"}  # noqa: E731
        assert same(fast.json()) == same(built.json()) and built.json()["cached"] is True
        assert same(made.json()) == {**same(built.json()), "cached": False}
        conversation = client.get(f"/v1/conversations/{fast.json()['conversation_id']}").json()
        assert [(m["role"], m["content"]) for m in conversation["messages"]] == [
            ("user", TEXT), ("assistant", made.json()["explanation"])]
        assert conversation["messages"][1]["html"] and conversation["title"] == TEXT
        assert fast.json()["conversation_id"] != built.json()["conversation_id"]


def test_a_fast_hit_is_filed_under_the_callers_token(unjargon_home):
    with TestClient(create_app(load_settings(backend="offline", home=unjargon_home, api_token=f"{ALICE},{BOB}"))) as client:
        for _ in range(3):
            alice = client.post("/v1/explain", json={"text": TEXT}, headers={"Authorization": f"Bearer {ALICE}"})
        path = f"/v1/conversations/{alice.json()['conversation_id']}"
        assert client.get(path, headers={"Authorization": f"Bearer {ALICE}"}).status_code == 200
        assert client.get(path, headers={"Authorization": f"Bearer {BOB}"}).status_code == 404
        assert client.post("/v1/explain", json={"text": TEXT}).status_code == 401
