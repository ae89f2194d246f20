package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// inputsKey names, in an output's settings file, the inputs its run was
// given (InputsSetting): a resumed run must be given the same, as they
// were spelled, else its outputs would name pages two ways ("w/a.warc"
// and "./w/a.warc") or be marked finished without the inputs it left out.
const inputsKey = "inputs"

// InputsSetting is the value of Settings' "inputs" for a run given the
// INPUT arguments args and the lists of inputs lists (-i): the arguments
// as they were spelled (RecordedName), then each list as "-i LIST", in
// JSON. A list's content is not recorded: a resume compares the pages
// the earlier run did with the inputs in order (Resume), and a path left
// out of a list after those is not noticed.
func InputsSetting(args, lists []string) string {
	var all []string
	for _, a := range args {
		all = append(all, RecordedName(a)) // JSON would hold an invalid byte as U+FFFD
	}
	for _, l := range lists {
		all = append(all, "-i "+RecordedName(l))
	}
	data, err := json.Marshal(all)
	if err != nil { // strings always encode
		return ""
	}
	return string(data)
}

// inputsDiff explains why a resume given the inputs now (InputsSetting)
// cannot go on an output written from had; nil where they are the same,
// or where either is not known (an output written before 2026-12-03
// records none).
func inputsDiff(had, now string) error {
	if had == "" || now == "" || had == now {
		return nil
	}
	var a, b []string
	if json.Unmarshal([]byte(had), &a) != nil || json.Unmarshal([]byte(now), &b) != nil {
		return nil
	}
	const how = "give the inputs as the earlier run was given them (the same command, with --resume), or rerun with --overwrite in place of --resume to start afresh"
	i := 0
	for i < len(a) && i < len(b) && alike(a[i], b[i]) {
		i++
	}
	switch {
	case i == len(a) && i == len(b):
		return nil
	case i == len(b) && i < len(a):
		return fmt.Errorf("--resume: the earlier run was given %d inputs, this one %d: it lacks %s, which the output would be marked finished without; %s", len(a), len(b), some(a[i:]), how)
	case i == len(a) && i < len(b):
		return fmt.Errorf("--resume: this run is given inputs the earlier run was not (%s): a resume finishes the earlier run's inputs; clean the others into another output, or %s", some(b[i:]), how)
	case sameFile(a[i], b[i]):
		return fmt.Errorf("--resume: input %d is %s in the earlier run and %s now, the same file spelled another way, so that the output would name its pages two ways; %s", i+1, a[i], b[i], how)
	}
	return fmt.Errorf("--resume: input %d is %s in the earlier run and %s now: these are not its inputs; %s", i+1, a[i], b[i], how)
}

// alike reports whether two inputs give their pages the same names: the
// same spelling; or a folder spelled another way that cleans to the same
// path ("in/", "./in": a walk joins the names it finds to the folder's,
// which cleans them); or a list (-i) that is the same file, whose own
// name names no page.
func alike(a, b string) bool {
	switch {
	case a == b:
		return true
	case strings.HasPrefix(a, "-i ") || strings.HasPrefix(b, "-i "):
		return sameFile(a, b) // false for a list and a path
	case filepath.Clean(a) != filepath.Clean(b):
		return false
	}
	fi, err := os.Stat(a) // b is the same path
	return err == nil && fi.IsDir()
}

// some names the first few of names.
func some(names []string) string {
	const most = 3
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}

// sameFile reports whether two inputs name the same file or folder
// ("-i LIST" a list); "-" is standard input, no file.
func sameFile(a, b string) bool {
	la, oka := strings.CutPrefix(a, "-i ")
	lb, okb := strings.CutPrefix(b, "-i ")
	if oka != okb || la == "-" || lb == "-" {
		return false
	}
	fa, err := os.Stat(la)
	if err != nil {
		return false
	}
	fb, err := os.Stat(lb)
	return err == nil && os.SameFile(fa, fb)
}
