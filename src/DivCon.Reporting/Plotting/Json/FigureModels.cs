using System.Text.Json.Serialization;

namespace DivCon.Reporting.Plotting.Json;

// The figure models as written to *.plot.json: one record per figure kind, serialised by FigureJsonContext. Property
// names are camelCase; a number that is not finite is written as null (NumberConverter), colours as #RRGGBBAA.

/// <summary>Any figure: the <c>kind</c> discriminator comes first, then these, then the kind's own properties.</summary>
[JsonPolymorphic(TypeDiscriminatorPropertyName = "kind", UnknownDerivedTypeHandling = JsonUnknownDerivedTypeHandling.FailSerialization)]
[JsonDerivedType(typeof(LineModel), "line")]
[JsonDerivedType(typeof(BarModel), "bar")]
[JsonDerivedType(typeof(StackedBarModel), "stackedBar")]
[JsonDerivedType(typeof(StackedStepModel), "stackedStep")]
internal abstract record FigureModel([property: JsonPropertyOrder(-2)] string Title, [property: JsonPropertyOrder(-1)] bool ShowLegend);

internal sealed record LineModel(string Title, bool ShowLegend, AxisModel XAxis, AxisModel YAxis, LineSeriesModel[] Series,
    ReferenceLineModel[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record BarModel(string Title, bool ShowLegend, string XLabel, AxisModel YAxis, string[] Groups, BarSeriesModel[] Series,
    ReferenceLineModel[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record StackedBarModel(string Title, bool ShowLegend, string XLabel, AxisModel YAxis, string[] Categories,
    BarSeriesModel[] Segments) : FigureModel(Title, ShowLegend);

internal sealed record StackedStepModel(string Title, bool ShowLegend, AxisModel XAxis, AxisModel YAxis, double[] Times,
    StepLayerModel[] Layers, ReferenceLineModel[] ReferenceLines) : FigureModel(Title, ShowLegend);

internal sealed record AxisModel(string Label, AxisScale Scale, bool IntegerTicks, double? Min, double? Max);

internal sealed record LineSeriesModel(string Name, PlotColor Color, MarkerShape Marker, LinePattern Pattern, double LineWidth,
    double MarkerSize, double[] X, double[] Y, double[]? ErrorMinus, double[]? ErrorPlus);

internal sealed record BarSeriesModel(string Name, PlotColor Color, double[] Values, double[]? ErrorMinus, double[]? ErrorPlus);

internal sealed record StepLayerModel(string Name, PlotColor Color, double[] Values);

internal sealed record ReferenceLineModel(string Label, double Slope, double Intercept, PlotColor Color, LinePattern Pattern);
