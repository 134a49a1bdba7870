# C types for maumau/engine.py when Cython compiles it (setup.py); Python ignores this file.
# Only the hot path is typed: legal moves and the two fast paths of apply_move.
cimport cython

from maumau.state cimport GameState, make_state
from maumau.variants cimport Variant


@cython.locals(i=Py_ssize_t, index=Py_ssize_t)
cpdef tuple add_cards(hand, new)
@cython.locals(i=Py_ssize_t)
cpdef tuple remove_cards(hand, gone)

@cython.locals(seat=Py_ssize_t, moves=list, variant=Variant)
cpdef tuple legal_moves(GameState state)

cpdef GameState apply_move(GameState state, move, bint fast=*)

@cython.locals(seat=Py_ssize_t, variant=Variant)
cdef GameState _plain_play(GameState state, move)

@cython.locals(seat=Py_ssize_t)
cdef GameState _plain_draw(GameState state)



cdef class _Seats:
    cdef public object active, direction


cdef class _Cards(_Seats):
    cdef public object variant, hands, stock, discard, seed, events, acting


cdef class Turn(_Cards):
    cdef public object state, player, move, wish, answered, pending, phase, drawn, runde, locked
    cdef public object to_move, skips, idle, winner, over, blocked


cdef class Deal(_Cards):
    cdef public object dealer, to_move, choose_wish
