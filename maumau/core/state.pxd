# C types for maumau/core/state.py when Cython compiles it (setup.py); Python ignores this file.
# GameState becomes an extension type that the engine's functions below read and fill directly;
# only the hot path is typed: legal moves and the two fast paths of apply_move.
cimport cython

from maumau.core.turn cimport Turn, add_index, cards_of, next_active, packed, remove_cards
from maumau.core.variants cimport Variant


# final: its methods are called directly.  (No no_gc: a learner's rule may keep a state it was
# shown, and a state's memory holds the rules, so a state can sit in a cycle the collector must see.)
@cython.final
cdef class GameState:
    cdef public object _variant, _hands, _stock, _discard, _to_move, _direction, _wish, _pending
    cdef public object _phase, _drawn, _memory, _active, _dealer, _seed, _idle, _winner
    cdef public object _over, _blocked, _events, _legal, _key, _hash, _held
    cdef object __weakref__

    cpdef Py_ssize_t next_seat(self, Py_ssize_t seat)


cpdef GameState make_state(variant, hands, stock, discard, to_move, direction, wish, pending, phase,
                           drawn, memory, active, dealer, seed, idle, winner, over, blocked,
                           events=*)

@cython.locals(state=GameState)
cdef GameState _new_state(variant, tuple hands, stock, discard, to_move, direction, wish, pending, phase,
                          drawn, memory, active, dealer, seed, idle, winner, over, blocked,
                          events=*)

cpdef GameState next_state(Turn turn)

# A hand is bytes: walked as C chars, each card's plays read from a tuple by its index.
@cython.locals(seat=Py_ssize_t, moves=list, variant=Variant, plays=tuple, found=tuple, hand=bytes,
               candidates=bytes, index=Py_ssize_t, last=Py_ssize_t, pile=bytes)
cpdef tuple legal_moves_of(GameState state)

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

@cython.locals(seat=Py_ssize_t, variant=Variant, gone=bytes, hand=bytes)
cdef GameState _plain_play(GameState state, move)

@cython.locals(seat=Py_ssize_t, stock=bytes, card=Py_ssize_t)
cdef GameState _plain_draw(GameState state)
