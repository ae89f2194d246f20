# Generates difflib.json: random sequences and the matching blocks of
# Python difflib.SequenceMatcher(None, a, b) (autojunk on). Run: python3 gen_difflib.py
import random, json
from difflib import SequenceMatcher
random.seed(1)
cases=[]
for t in range(120):
    V=random.choice([3,5,20,100])
    la=random.randint(0,250); lb=random.randint(0,250)
    a=[str(random.randint(0,V)) for _ in range(la)]
    b=[str(random.randint(0,V)) for _ in range(lb)]
    if t%3==0 and la>10:
        b=a[random.randint(0,5):]+b[:50]
    m=SequenceMatcher(None,a,b).get_matching_blocks()
    cases.append({"a":a,"b":b,"m":[[x.a,x.b,x.size] for x in m if x.size]})
json.dump(cases,open("difflib.json","w"))
