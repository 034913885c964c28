def compute(formula):
    return eval(formula)
