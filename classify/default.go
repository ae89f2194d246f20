package classify

import (
	"bytes"
	"embed"
	"fmt"
)

//go:embed models
var embedded embed.FS

// Default returns the embedded default model: with visual features
// (pages must be rendered) or without.
func Default(visual bool) (*Model, error) {
	name := "models/text.fiasco"
	if visual {
		name = "models/visual.fiasco"
	}
	data, err := embedded.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("this fiasco was built without the default model %s: %w", name, err)
	}
	m, err := Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", name, err)
	}
	return m, nil
}
