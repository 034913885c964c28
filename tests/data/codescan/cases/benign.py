import json
import subprocess
import requests


def main():
    out = subprocess.run(["git", "status", "--short"], capture_output=True,
                         text=True)
    print(len(out.stdout.splitlines()))
    r = requests.get("https://api.github.com/repos/octo/demo")
    print(json.dumps(r.json()["stargazers_count"]))
    pattern = "|".join(["a", "b"])
    print(pattern)
