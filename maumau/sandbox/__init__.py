"""The sandbox that learners' code runs in, shared by the grader and the league.

- ``jail``: the bubblewrap jail (no network, a read-only root, its own PID namespace, an
  unprivileged user, a size-capped scratch folder), a control group per child, and the process
  tree measured from ``/proc`` where no control group holds it;
- ``limits``: what one run may use (``Limits``) and the disk it wrote;
- ``guard``: what runs inside and around the child: the resource limits and audit hook it
  installs on itself (``python -m maumau.sandbox.guard`` is the grader's kernel), and the
  channels through which the grader reaches a jailed kernel's sockets.

It imports nothing of ``maumau.grading`` or ``maumau.league``: both stand above it.
"""
