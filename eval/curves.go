package eval

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/strata-retrieval/strata/internal/atomicfile"
)

// CurvePoint is the metrics of one checkpoint on one split.
type CurvePoint struct {
	Step       int     `json:"step"`
	Checkpoint string  `json:"checkpoint"`
	Split      string  `json:"split"`
	Best       bool    `json:"best"`
	Hit1       float64 `json:"hit@1"`
	Hit5       float64 `json:"hit@5"`
	Recall20   float64 `json:"recall@20"`
	MRR        float64 `json:"mrr"`
}

// CurveMetrics names the metrics a curve plots, in order.
var CurveMetrics = []string{"hit@1", "hit@5", "recall@20", "mrr"}

func (p CurvePoint) value(metric string) float64 {
	switch metric {
	case "hit@1":
		return p.Hit1
	case "hit@5":
		return p.Hit5
	case "recall@20":
		return p.Recall20
	}
	return p.MRR
}

// WriteCurvesCSV writes one row per (checkpoint, split).
func WriteCurvesCSV(w io.Writer, pts []CurvePoint) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"step", "checkpoint", "split", "best", "hit@1", "hit@5", "recall@20", "mrr"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for _, p := range pts {
		cw.Write([]string{strconv.Itoa(p.Step), p.Checkpoint, p.Split, strconv.FormatBool(p.Best), f(p.Hit1), f(p.Hit5), f(p.Recall20), f(p.MRR)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteCurvesJSON writes the points as a JSON array.
func WriteCurvesJSON(w io.Writer, pts []CurvePoint) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(pts)
}

var palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 255, G: 127, B: 14, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255}, color.RGBA{R: 214, G: 39, B: 40, A: 255},
}

// PlotCurves draws Hit@1, Hit@5, Recall@20 and MRR against the training step
// for every split (solid lines for the first split, dashed for the next),
// marking the best checkpoint with a vertical line. format is "png" or "svg".
func PlotCurves(w io.Writer, title string, pts []CurvePoint, format string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "training step"
	p.Y.Label.Text = "metric"
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = true
	p.Legend.Left = false
	var splits []string
	seen := map[string]bool{}
	bestStep := -1
	for _, pt := range pts {
		if !seen[pt.Split] {
			seen[pt.Split] = true
			splits = append(splits, pt.Split)
		}
		if pt.Best {
			bestStep = pt.Step
		}
	}
	for si, split := range splits {
		for mi, metric := range CurveMetrics {
			var xy plotter.XYs
			for _, pt := range pts {
				if pt.Split == split {
					xy = append(xy, plotter.XY{X: float64(pt.Step), Y: pt.value(metric)})
				}
			}
			line, points, err := plotter.NewLinePoints(xy)
			if err != nil {
				return err
			}
			line.Color = palette[mi%len(palette)]
			line.Width = vg.Points(1.5)
			points.Color = line.Color
			points.Shape = draw.CircleGlyph{}
			points.Radius = vg.Points(1.8)
			if si > 0 {
				line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(line, points)
			p.Legend.Add(fmt.Sprintf("%s %s", split, metric), line, points)
		}
	}
	if bestStep >= 0 {
		best, err := plotter.NewLine(plotter.XYs{{X: float64(bestStep), Y: 0}, {X: float64(bestStep), Y: 1}})
		if err != nil {
			return err
		}
		best.Color = color.Gray{Y: 90}
		best.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(best)
		p.Legend.Add(fmt.Sprintf("best (step %d)", bestStep), best)
	}
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// CurveFiles names the files WriteCurveFiles writes, in its order.
func CurveFiles() []string { return []string{"curves.csv", "curves.json", "curves.png", "curves.svg"} }

// WriteCurveFiles writes curves.csv, curves.json, curves.png and
// curves.svg of pts into dir, each atomically.
func WriteCurveFiles(dir, title string, pts []CurvePoint) error {
	for i, write := range []func(w io.Writer) error{
		func(w io.Writer) error { return WriteCurvesCSV(w, pts) },
		func(w io.Writer) error { return WriteCurvesJSON(w, pts) },
		func(w io.Writer) error { return PlotCurves(w, title, pts, "png") },
		func(w io.Writer) error { return PlotCurves(w, title, pts, "svg") },
	} {
		if err := atomicfile.WriteFile(filepath.Join(dir, CurveFiles()[i]), write); err != nil {
			return err
		}
	}
	return nil
}
