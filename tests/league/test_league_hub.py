"""The class league on a real JupyterHub: a learner enters a bot from a hub notebook with
``classroom.enter_league`` and the bot takes the learner's hub name (the hub login of the class
table); without a user's token for the service nothing is entered; the page needs the hub's
login.  The hub, its proxy and the service are those of tests/classroom/test_hub.py."""

from __future__ import annotations

import urllib.request

import pytest

pytest.importorskip("jupyterhub")
pytest.importorskip("websockets")

from test_hub import CHP, Hub, hub, page_session  # noqa: E402, F401  (the fixture, for this module's hub)
from websockets.exceptions import InvalidStatus  # noqa: E402

from maumau import classroom, league  # noqa: E402
from maumau.sandbox import jail  # noqa: E402

_JAIL, _WHY = jail.find_jail([])
pytestmark = [pytest.mark.skipif(not CHP.exists(), reason=f"configurable-http-proxy is not installed at {CHP}"),
              pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")]
RANDOM = "from maumau.players import Random\nPLAYER = Random\n"


def test_a_hub_user_enters_a_bot_under_their_hub_name(hub: Hub) -> None:  # noqa: F811 (the fixture)
    code = "HUBLG2"
    league.League("makao", players=2, db=hub.run / f"league-{code}.sqlite", seed=1).store.close()
    entered = classroom.enter_league(hub.service, code, RANDOM, name="Mallory", hub_token=hub.token("alice"))
    assert entered["name"] == "alice" and entered["version"] == 1 and entered["token"] is None
    again = classroom.enter_league(hub.service, code, RANDOM, hub_token=hub.token("alice"))
    assert again["name"] == "alice" and again["version"] == 2
    with pytest.raises(InvalidStatus, match="HTTP 40[13]"):  # the handshake is refused: no such hub token
        classroom.enter_league(hub.service, code, RANDOM, name="bob", hub_token="not-a-token")
    lg = league.League.open(hub.run / f"league-{code}.sqlite")
    assert [b.name for b in lg.bots()] == ["alice"]
    with urllib.request.urlopen(f"{hub.service}/league/{code}", timeout=20) as answer:  # no hub login: the hub's
        assert "/hub/login" in answer.url                                              # form, as for the table
    page, _, _ = page_session(hub, "bob", f"/league/{code}")  # the page after the hub's OAuth login
    assert "alice" in page and 'id="bot-name"' not in page  # on the hub the name is the hub's,
    assert f'classroom.enter_league(url, &quot;{code}&quot;' in page  # entered from a hub notebook
