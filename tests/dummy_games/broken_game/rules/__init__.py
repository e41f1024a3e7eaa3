raise ImportError("this game package is broken on purpose")
