package pipeline_test

import (
	"context"
	"fmt"
	"log"

	"github.com/fiasco-project/fiasco/pipeline"
)

const page = `<html><head><title>Festival</title></head><body>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/contact">Contact us</a></li></ul>
<h1>River festival draws record crowds</h1>
<p>More than forty thousand people came to the banks of the river on Saturday for the annual summer festival, the largest crowd since the event began in 1987.</p>
<p>The mayor thanked the volunteers who had spent the week building stages and cleaning the paths along the water, before the first boats set off on the parade.</p>
<div id="footer">Copyright 2026 Riverside Gazette. <a href="/privacy">Privacy</a> <a href="/terms">Terms of use</a></div>
</body></html>`

// Clean a page with the embedded text model, without rendering it.
// pipeline.New(ctx, true) would start Chromium and use the visual model,
// fiasco clean's default under the corpus policy.
func Example() {
	ctx := context.Background()
	c, err := pipeline.New(ctx, false)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	res, err := c.Clean(ctx, "page.html", []byte(page))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Text())
	// Output:
	// River festival draws record crowds
	//
	// More than forty thousand people came to the banks of the river on Saturday for the annual summer festival, the largest crowd since the event began in 1987.
	//
	// The mayor thanked the volunteers who had spent the week building stages and cleaning the paths along the water, before the first boats set off on the parade.
}

// Clean many pages on every CPU: every input yields exactly one outcome,
// a result or an error naming the page.
func ExampleCleaner_Batch() {
	ctx := context.Background()
	c, err := pipeline.New(ctx, false)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	inputs := []pipeline.Input{
		{Name: "good.html", Data: []byte(page)},
		{Name: "empty.html", Data: []byte{}},
	}
	outs := make([]string, len(inputs))
	err = c.Batch(ctx, inputs, 0, func(o pipeline.Outcome) {
		if o.Err != nil {
			outs[o.Index] = "error: " + o.Err.Error()
			return
		}
		outs[o.Index] = fmt.Sprintf("%s: kept %d of %d blocks", o.Input.Name, len(o.Result.Kept()), len(o.Result.Blocks))
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range outs {
		fmt.Println(s)
	}
	// Output:
	// good.html: kept 3 of 7 blocks
	// error: empty.html: empty page
}
