# Generates scores.json: synthetic cleaned/gold text pairs in CleanEval format
# and the counts of the reference scorer's logic (cleaneval.py v1.0 by
# Stefan Evert: normalize(), whitespace split, difflib.SequenceMatcher,
# replace = delete + insert), with the empty tokens that re.split yields at
# leading/trailing white space removed. Run: python3 gen_scores.py
import json, random, re
from difflib import SequenceMatcher

re_URL = re.compile(r"^\s*URL.*$", re.MULTILINE)
re_TAG = re.compile(r"(<[phl]>)", re.IGNORECASE)
re_WS = re.compile(r"\s+")
re_CTRL = re.compile(r"[\x00-\x1F]+")

def normalize(text, unlabelled=False):
    text = re_URL.sub("", text)
    text = re_CTRL.sub(" ", text)
    text = re_TAG.sub("\n<p> " if unlabelled else "\n\\g<1> ", text)
    return re_WS.sub(" ", text)

def words(text, unlabelled=False, tags=True):
    w = [x for x in re_WS.split(normalize(text, unlabelled)) if x != ""]
    if not tags:
        w = [x for x in w if not re_TAG.match(x)]
    return w

def counts(out, gold, unlabelled=False, tags=True):
    a, b = words(out, unlabelled, tags), words(gold, unlabelled, tags)
    tp = tag_tp = 0
    for i, j, n in SequenceMatcher(None, a, b).get_matching_blocks():
        tp += n
        tag_tp += sum(1 for x in a[i:i+n] if re_TAG.match(x))
    return {"matched": tp, "out": len(a), "gold": len(b), "tag_matched": tag_tp,
            "out_tags": sum(1 for x in a if re_TAG.match(x)), "gold_tags": sum(1 for x in b if re_TAG.match(x))}

random.seed(3)
vocab = ["the", "of", "and", "a", "to", "in", "news", "home", "story", "day", "URL", "Login",
         "said", "x<p>y", "café", "–", "|", "time", "people", "year", "report"] + ["w%d" % i for i in range(150)]
def text(n):
    out = []
    for _ in range(n):
        r = random.random()
        if r < 0.08:
            out.append(random.choice(["<p>", "<h>", "<l>", "<P>", "\n<p>"]))
        elif r < 0.12:
            out.append(random.choice(["\n", "\r\n", "\t", "  ", "\u00a0"]))
        else:
            out.append(random.choice(vocab))
    return " ".join(out)

cases = []
for k in range(40):
    gold = "URL: http://example.org/%d\n" % k + text(random.randint(0, 400))
    g = gold.split(" ")
    out = []
    for w in g:
        r = random.random()
        if r < 0.1:
            continue
        if r < 0.2:
            out.append(random.choice(vocab))
        out.append(w)
    if k % 4 == 0:
        out = [text(50)] + out
    out = " ".join(out)
    res = []
    for unl in (False, True):
        for tags in (False, True):
            c = counts(out, gold, unl, tags)
            tc = counts(out, gold, unl, True)
            c["tag_matched"], c["out_tags"], c["gold_tags"] = tc["tag_matched"], tc["out_tags"], tc["gold_tags"]
            c["unlabelled"], c["tags"] = unl, tags
            res.append(c)
    cases.append({"out": out, "gold": gold, "results": res})
json.dump(cases, open("scores.json", "w"), ensure_ascii=False)
