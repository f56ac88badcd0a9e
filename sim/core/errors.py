"""The one error type a user sees: a one-line message and exit status 2."""


class UserError(Exception):
    """Bad input from the user (unknown game, wrong player count, malformed variant...).

    The CLI prints `error: <message>` on one line and exits with status 2; nothing is written.
    """


class EngineFailure(Exception):
    """A game engine reported an invalid game state: a bug to reproduce with `sim replay`.

    The CLI prints `error: <message>` on one line and exits with status 1; nothing is kept
    (a resumed run keeps what it had).
    """


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run: the finished chunks are kept for `--resume`.

    The CLI prints the message, which says what was kept, and exits with status 130.
    """
