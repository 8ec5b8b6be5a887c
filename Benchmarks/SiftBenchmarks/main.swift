import Sift
print("bench")
