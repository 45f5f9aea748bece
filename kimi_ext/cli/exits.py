"""The exit codes the ``kimi`` command decides itself, as plain numbers.

Nothing is imported here, so the entry module (:mod:`kimi_ext.cli`) can name them without
loading anything. Which error class gives which code, and the table ``kimi --help`` shows,
are in :mod:`kimi_ext.cli.output`.
"""

EXIT_USAGE = 2  # a bad command line: argparse's own code, and that of RequestValidationError
EXIT_SETUP = 6  # the setup cannot be used: no key, a bad address, a file that cannot be used
EXIT_STANDIN = 7  # the stand-in could not listen on its port (python -m kimi_ext.testing too)
EXIT_CASSETTES = 9  # a cassette check failed: a secret, an unused cassette or interaction
EXIT_INTERRUPTED = 130  # Ctrl-C
