module github.com/fiasco-project/fiasco/bench/readability

go 1.26.8

require (
	codeberg.org/readeck/go-readability/v2 v2.1.2
	github.com/fiasco-project/fiasco v0.0.0-00010101000000-000000000000
)

require (
	github.com/andybalholm/cascadia v1.3.5 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-shiori/dom v0.0.0-20230515143342-73569d674e1c // indirect
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f // indirect
	github.com/itlightning/dateparse v0.2.1 // indirect
	golang.org/x/image v0.47.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/fiasco-project/fiasco => ../..
