import time

def poll(q):
    while True:
        item = q.get()
        handle(item)
        time.sleep(1)

def handle(item):
    return item
