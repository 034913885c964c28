def warm(x):
    while True:
        touch(x)

def fill(x):
    return [x] * 50000000

def touch(x):
    return x
