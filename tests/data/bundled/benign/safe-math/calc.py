import ast

def compute(formula):
    return eval("1 + 2")

def debug(expr, env):
    return eval(expr, env)
