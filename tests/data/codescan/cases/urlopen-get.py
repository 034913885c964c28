import urllib.request

with urllib.request.urlopen("https://pypi.org/simple/") as r:
    page = r.read()
