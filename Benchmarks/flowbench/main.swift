print("flowbench: not built yet")
