# C types for maumau/env/hand.py when Cython compiles it (setup.py); Python ignores this file.
# Hand becomes an extension type: observe() asks the compiled Seen for the vector with a C call,
# and the step's bookkeeping (steps, the legal actions of the state now) sits in C fields.
cimport cython

from maumau.core.state cimport GameState
from maumau.env.actions cimport Actions
from maumau.env.seen cimport Seen


@cython.final
cdef class Hand:
    cdef public object variant, observer, illegal, rng
    cdef public Actions actions
    cdef public Py_ssize_t players, max_steps, steps
    cdef public double illegal_reward
    cdef public list seen
    cdef public GameState state
    cdef object _no_actions, _legal_state
    cdef dict _masks
    cdef tuple _legal_key

    @cython.locals(state=GameState, seen=Seen, legal=tuple)
    cpdef dict observe(self, Py_ssize_t seat)

    cpdef tuple legal(self)

    cpdef GameState play(self, move)
