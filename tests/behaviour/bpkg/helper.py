HELPER = "helper value"


def helper_fn(x):
    return ("helper", x)
