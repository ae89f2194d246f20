// Package pipeline runs fiasco's cleaning stages on web pages, one after
// the other: load, preclean, blocks (target nodes), optionally render and
// vision (visual features), features, classify; the caller exports the
// result (package export; [Result.Write] adds what the cleaning knows of
// its decisions: the render error, unseen blocks and floor below). It is the one orchestrating package: the stages
// never import it, and training and evaluation (package train) sit on top
// of it.
//
// Rendering ([ChromeVisualizer]) hands what package vision measured, one
// vision.Features per block, to features.Extract as it is: a new visual
// feature is added in package vision alone (its Features and Fields; see
// its documentation), and reaches the feature vector without a change
// here.
//
// What a visual model cannot see goes to the text model that goes with
// it (classify.Model.Text; by default the embedded text model of its
// policy): the blocks below the capture, every block of a page whose
// rendering shows less than [MinVisibleShare] of its text, and, with
// [Cleaner.TextFallback], a page whose rendering failed ([RenderError];
// [Result.RenderErr] says why; [Result.Unseen] and [Result.UnseenBlocks]
// count and mark the blocks). With classify.Model.Rescue (off by
// default), the same text model rescues prose ([RescueMargin]): a block
// of running text it is sure of is kept even where the visual model
// would drop it, so that an article laid out unlike any page the visual
// model was trained on is not lost. With classify.Model.Blend (0 by
// default), every other block's value is a weighted mean of the two
// models' values.
//
// With classify.Model.Smooth (the corpus policy's text model has 0.25,
// the other embedded models 0; [Cleaner.Smooth] sets it for a run),
// blocks are kept or dropped with their neighbours in document order
// (classify.KeepSmooth, [Keep]).
// With classify.Model.Floor (the corpus policy's two models have it;
// [Cleaner.Floor] sets it for a run), a page the model all but empties of
// its running text keeps every block of prose ([FloorShare], [Keep];
// [Result.Floored] reports it, [Result.Floor] marks the blocks), after
// any smoothing; so does a page that would keep no block at all,
// however few words its prose holds. Whatever the model says, a block that is only an
// advertisement's label ("Advertisement", "Anzeige") is never kept, nor
// one inside a box of [MaxBoxWords] words or fewer whose class or id
// names what it holds (a newsletter prompt, a login box, the comment
// form, an author's bio, teasers, a most-popular list, pagination), nor,
// under the corpus policy (classify.Info.Policy), one whose whole text is
// a time stamp ("05-06-2005, 05:41 PM", "Last updated at 13:25 GMT") or a
// byline ("Posted by jamie k at 04:29 PM | Permalink") and that is no
// heading, nor, under either policy, a copyright line ("© 2024 Example
// Times", "版权所有 2024 城市日报") that is no heading ([NeverKept]). A
// page that would keep no block at all keeps its best one, within
// classify.FallbackMargin of the threshold ([Result.Fallback] marks it).
//
// # Contract
//
// Every entry point takes a context first. Library code never prints: batch
// functions report each page through a callback, as a [Result] or an error
// naming the page, so a batch never dies on one page and never loses one.
//
// # Tutorial
//
// [New] gives a [Cleaner] with the embedded default model, [Cleaner.Clean]
// cleans one page and [Result.Text] is its clean text (the package
// example); [Cleaner.Batch] cleans many pages on every CPU. For other
// models, thresholds or browser options, fill a Cleaner's fields yourself:
// Model from classify.Load, Prepare.Visual from [NewVisualizer].
package pipeline
