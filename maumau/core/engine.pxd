# C types for maumau/engine.py when Cython compiles it (setup.py); Python ignores this file.
# Only the hot path is typed: legal moves and the two fast paths of apply_move.
cimport cython

from maumau.core.state cimport GameState, make_state
from maumau.core.turn cimport Turn, add_cards, remove_cards
from maumau.core.variants cimport Variant


@cython.locals(seat=Py_ssize_t, moves=list, variant=Variant, plays=dict, found=tuple)
cpdef tuple legal_moves(GameState state)

@cython.locals(turn=Turn)
cpdef GameState apply_move(GameState state, move, bint fast=*)

@cython.locals(turn=Turn, variant=Variant)
cdef GameState _play(GameState state, move)

cpdef play_effects(Turn turn, card)

cdef _accept(Turn turn, pending)

@cython.locals(state=GameState)
cdef _draw(Turn turn)

@cython.locals(following=Py_ssize_t)
cdef inline Py_ssize_t _next(GameState state, Py_ssize_t seat)

@cython.locals(seat=Py_ssize_t, variant=Variant)
cdef GameState _plain_play(GameState state, move)

@cython.locals(seat=Py_ssize_t)
cdef GameState _plain_draw(GameState state)
