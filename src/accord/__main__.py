"""``python -m accord``: the same command line as the ``accord`` script."""

from accord.cli import main

if __name__ == "__main__":  # pragma: no branch
    main()
