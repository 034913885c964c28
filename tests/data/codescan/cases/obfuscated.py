import os
f = getattr(os, "sys" + "tem")
f("id")
