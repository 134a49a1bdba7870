"""A state graph stores little per state (maumau.graph.store, issue 29): the attributes a learner reads
are made from the states when read, and look stored to every way of reading them."""

from __future__ import annotations

import pickle

import pytest

import maumau as mm
from maumau import graph as gr
from maumau.graph.explore import node_attributes
from maumau.graph.store import HIDDEN
from maumau.text.explain import narrate


@pytest.fixture(scope="module")
def G():
    state = gr.fixed_stock(mm.position("makao", hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S"))
    return gr.state_graph(state)


def test_node_attributes_read_as_if_stored(G):
    for state, data in G.nodes(data=True):
        expected = node_attributes(state, data["depth"])
        expected.update(expanded=data["expanded"], chance=data["chance"])
        assert dict(data) == expected and data == expected and data.copy() == expected
        assert set(data) == set(expected) and len(data) == len(expected)
        assert data["top"] == state.top.text and data.get("hand_sizes") == tuple(len(h) for h in state.hands)
        assert not any(str(k).startswith(HIDDEN) for k in data) and HIDDEN + "state" not in data
        assert data.get("nothing", 7) == 7 and "nothing" not in data
    with pytest.raises(KeyError):
        G.nodes[next(iter(G))]["nothing"]


def test_edge_texts_are_made_when_read_and_equal_the_sentences(G):
    seen = 0
    for u, v, data in G.edges(data=True):
        assert data["explain"] == narrate(u, data["move"], v)
        assert data["label"] == gr.move_label(data["move"], u)
        assert data["moves"][0] == data["move"] and set(data) == {"move", "moves", "label", "explain", "reshuffle"}
        assert dict.__len__(data) == 0  # nothing in the dict's table: the move in a slot, the texts made
        seen += 1
    assert seen == G.number_of_edges() > 100
    explain_values = [e for *_, e in G.edges(data="explain")]
    assert all(explain_values) and len(set(explain_values)) > 10


def test_a_value_set_by_hand_is_stored_and_wins(G):
    H = G.copy()
    u, v = next(iter(H.edges))
    H.edges[u, v]["label"] = "mine"
    H.nodes[u]["value"] = 1
    assert H.edges[u, v]["label"] == "mine" and H.nodes[u]["value"] == 1 and "value" in H.nodes[u]


def test_copies_pickles_and_parts_keep_every_attribute(G):
    for H in (G.copy(), pickle.loads(pickle.dumps(G)), gr.around(G, next(iter(G)), radius=2)):
        for node, data in H.nodes(data=True):
            assert dict(data) == dict(G.nodes[node])
        for u, v, data in H.edges(data=True):
            assert dict(data) == dict(G.edges[u, v])


def test_no_sentences_asked_for_gives_empty_ones():
    state = gr.fixed_stock(mm.position("makao", hands=["7H 9C", "8H JD"], top="5H", stock="KH 2C"))
    G = gr.state_graph(state, explain=False)
    assert {e for *_, e in G.edges(data="explain")} == {""}
    assert all(label for *_, label in G.edges(data="label"))


def test_nothing_of_a_built_graph_is_in_a_dict_table(G):
    """What exploring decides lives in slots: no node or edge dict of a built graph has a table."""
    assert all(dict.__len__(d) == 0 for _, d in G.nodes(data=True))
    assert all(dict.__len__(d) == 0 for *_, d in G.edges(data=True))


def test_the_attribute_dicts_behave_as_dicts(G):
    H = G.copy()  # a copy: its dicts are filled from plain dicts, as networkx copies them
    for K in (G, H):
        node = next(iter(K))
        d = K.nodes[node]
        before = dict(d)
        d.update({"depth": 7}, value=3)
        assert d["depth"] == 7 and d["value"] == 3 and d.setdefault("value", 9) == 3
        assert d.setdefault("fresh", 1) == 1 and d.pop("fresh") == 1 and "fresh" not in d
        assert d.pop("absent", None) is None
        with pytest.raises(KeyError):
            d.pop("absent")
        del d["value"]
        d["depth"] = before["depth"]
        assert dict(d) == before
    u, v = next(iter(G.edges))
    e = G.edges[u, v]
    e["label"] = "mine"  # a made attribute set by hand wins, and deleting it brings the made one back
    assert e["label"] == "mine"
    del e["label"]
    assert e["label"] == gr.move_label(e["move"], u)


def test_nodes_keep_no_equality_key_and_are_found_by_states_played_afresh():
    """The graph drops the key a state caches when hashed (explore._forget_key); every state reached by
    playing the moves again from the root is still found, equal, with its edges (transpositions merged)."""
    root = gr.fixed_stock(mm.position("makao", hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S"))
    G = gr.state_graph(root)
    assert all(state._key is None for state in G)  # what the cache held (~300 bytes a state) is not kept
    frontier, seen = [root], 0
    while frontier and seen < 3000:
        state = frontier.pop()
        assert state in G and G.nodes[state]["depth"] <= len(G)
        for move in state.legal_moves():
            child = state.apply(move)  # a new object, equal to the node
            assert G.has_edge(state, child) and move in G.edges[state, child]["moves"]
            frontier.append(child)
            seen += 1
    ids = {id(s) for s in G}
    assert all(id(u) in ids and id(v) in ids for u, v in G.edges())  # an edge leads to the node itself, not a copy
    assert all(data._to is v for _, v, data in G.edges(data=True))
