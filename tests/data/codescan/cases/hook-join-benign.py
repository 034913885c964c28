import os
hook = os.path.join(".git", "hooks", "pre-commit")
if os.path.exists(hook):
    print(open(hook).read())
