package warc_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"time"

	"github.com/fiasco-project/fiasco/warc"
)

// Write a WET file of two records, a warcinfo record and the text of one
// page, and read it back.
func Example() {
	var file bytes.Buffer
	w := warc.NewWriter(&file, false)      // true: one gzip member per record
	w.Rand = rand.NewChaCha8([32]byte{42}) // reproducible record IDs
	date := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

	if _, err := w.WriteWarcinfo(date, "example.warc.wet.gz", warc.Header{{Name: "software", Value: "fiasco"}}); err != nil {
		log.Fatal(err)
	}
	_, err := w.WriteConversion(warc.Conversion{
		TargetURI: "https://example.org/",
		RefersTo:  "<urn:uuid:6f3e0bde-7f0a-4c47-9d3e-5bb1d0b0e1a2>", // the response record
		Date:      date,
		Text:      []byte("Example Domain\nThis domain is for use in examples."),
	})
	if err != nil {
		log.Fatal(err)
	}

	r := warc.NewReader(&file, warc.Options{Name: "example.warc.wet.gz"})
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		block, err := io.ReadAll(rec.Block())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s at offset %d, %s, %d bytes of %s\n", rec.Type, rec.Offset, rec.Date.Format(time.DateOnly), rec.ContentLength, rec.ContentType)
		if rec.Type == warc.TypeConversion {
			fmt.Println(" ", rec.TargetURI, "from", rec.Header.Get(warc.FieldRefersTo))
			fmt.Printf("  %q\n", block)
		}
	}
	// Output:
	// warcinfo at offset 0, 2024-05-01, 18 bytes of application/warc-fields
	// conversion at offset 306, 2024-05-01, 50 bytes of text/plain
	//   https://example.org/ from <urn:uuid:6f3e0bde-7f0a-4c47-9d3e-5bb1d0b0e1a2>
	//   "Example Domain\nThis domain is for use in examples."
}
