using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting.Json;

// The figure models as written to *.plot.json: one record per figure kind, serialised by FigureJsonContext, holding the
// figure's own parts (Axis, LineSeries, BarSeries, StepLayer, ReferenceLine: their properties in the order written, their
// constructors read back). Property names are camelCase; a number that is not finite is written as null (NumberConverter),
// colours as #RRGGBBAA.

/// <summary>Any figure: the <c>kind</c> discriminator comes first, then these, then the kind's own properties.</summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind", UnknownDerivedTypeHandling = JsonUnknownDerivedTypeHandling.FailSerialization)]
[JsonDerivedType(typeof(LineModel), "line")]
[JsonDerivedType(typeof(BarModel), "bar")]
[JsonDerivedType(typeof(StackedBarModel), "stackedBar")]
[JsonDerivedType(typeof(StackedStepModel), "stackedStep")]
internal abstract record FigureModel([property: JsonPropertyOrder(-2)] string Title, [property: JsonPropertyOrder(-1)] bool ShowLegend);

internal sealed record LineModel(string Title, bool ShowLegend, AxisModel XAxis, AxisModel YAxis, LineSeries[] Series,
    ReferenceLine[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record BarModel(string Title, bool ShowLegend, string XLabel, AxisModel YAxis, string[] Groups, BarSeries[] Series,
    ReferenceLine[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record StackedBarModel(string Title, bool ShowLegend, string XLabel, AxisModel YAxis, string[] Categories,
    BarSeries[] Segments) : FigureModel(Title, ShowLegend);

internal sealed record StackedStepModel(string Title, bool ShowLegend, AxisModel XAxis, AxisModel YAxis, double[] Times,
    StepLayer[] Layers, ReferenceLine[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record AxisModel(string Label, AxisScale Scale, bool IntegerTicks, double? Min, double? Max);
