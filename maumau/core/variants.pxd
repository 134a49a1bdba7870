# C types for maumau/variants.py when Cython compiles it (setup.py); Python ignores this file.
# The engine reads a Variant's precomputed tables directly; __dict__ keeps it open to new attributes.
cdef class Variant:
    cdef public object name, title, deck, hand_size, players, rules, options, changes
    cdef public object distinct_cards, _hooks, _extenders, _forcers, _effects, _last_card, _legal_cache
    cdef public object after_draw, reshuffles, extra_closer, announcement, scoring, upcard_rule, _plays, _hash, _wishers
    cdef public object _call, join_and_leave, memory_at_deal, _lock_slot
    cdef public dict _plays_by_top, _plays_cache
    cdef dict __dict__
    cdef object __weakref__
