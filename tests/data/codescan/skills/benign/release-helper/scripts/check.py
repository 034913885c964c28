"""List uncommitted files and the latest release of the project."""
import json
import subprocess

import requests


def main():
    out = subprocess.run(["git", "status", "--short"], capture_output=True,
                         text=True, check=False)
    print("\n".join(out.stdout.splitlines()))
    r = requests.get("https://api.github.com/repos/octo/demo/releases/latest",
                     timeout=10)
    print(json.dumps({"latest": r.json().get("tag_name")}))


if __name__ == "__main__":
    main()
