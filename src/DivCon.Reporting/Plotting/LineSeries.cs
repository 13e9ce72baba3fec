namespace DivCon.Reporting.Plotting;

/// <summary>One series of a <see cref="LinePlot"/>: points (X[i], Y[i]) joined in order. The values are kept
/// exactly as given. A point with a NaN or infinite coordinate, or a coordinate ≤ 0 on a logarithmic axis, is
/// not drawn and the line is broken there (it does not bridge the gap). Optional vertical error bars reach
/// <see cref="ErrorMinus"/>[i] below and <see cref="ErrorPlus"/>[i] above Y[i] (distances; NaN = none at that
/// point; on a log axis a lower end ≤ 0 is drawn to the bottom of the plot).</summary>
public sealed class LineSeries
{
    /// <summary>A series named <paramref name="name"/> through the points (x[i], y[i]).</summary>
    /// <param name="name">Legend text; an empty name keeps the series out of the legend.</param>
    /// <param name="x">X coordinates (copied).</param>
    /// <param name="y">Y coordinates (copied), as many as <paramref name="x"/>.</param>
    /// <param name="color">Line and marker colour.</param>
    /// <param name="marker">Marker at each point.</param>
    /// <param name="pattern">How the line is stroked (<see cref="LinePattern.None"/> for a scatter plot).</param>
    /// <param name="lineWidth">Line width in pixels at 800×600 (scaled up for larger images), 0.5–10.</param>
    /// <param name="markerSize">Marker diameter in pixels at 800×600, 2–30.</param>
    /// <param name="errorMinus">Distance of each error bar's lower end below Y (≥ 0 or NaN), or null.</param>
    /// <param name="errorPlus">Distance of each error bar's upper end above Y (≥ 0 or NaN), or null.</param>
    /// <exception cref="ArgumentException">No points; X and Y differ in length; only one error list given, or
    /// one of another length, or with a negative or infinite error.</exception>
    public LineSeries(string name, IReadOnlyList<double> x, IReadOnlyList<double> y, PlotColor color,
        MarkerShape marker = MarkerShape.Circle, LinePattern pattern = LinePattern.Solid, double lineWidth = 1.8,
        double markerSize = 7, IReadOnlyList<double>? errorMinus = null, IReadOnlyList<double>? errorPlus = null)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(x);
        ArgumentNullException.ThrowIfNull(y);
        if (x.Count != y.Count)
        {
            throw new ArgumentException($"Series '{name}': X has {x.Count} values but Y has {y.Count}; they must pair up.", nameof(y));
        }

        if (x.Count == 0)
        {
            throw new ArgumentException($"Series '{name}' has no points; a series needs at least one.", nameof(x));
        }

        if (!(lineWidth >= 0.5 && lineWidth <= 10))
        {
            throw new ArgumentOutOfRangeException(nameof(lineWidth), $"Line width must be 0.5–10 pixels, got {lineWidth}.");
        }

        if (!(markerSize >= 2 && markerSize <= 30))
        {
            throw new ArgumentOutOfRangeException(nameof(markerSize), $"Marker size must be 2–30 pixels, got {markerSize}.");
        }

        Name = name;
        X = [.. x];
        Y = [.. y];
        Color = color;
        Marker = marker;
        Pattern = pattern;
        LineWidth = lineWidth;
        MarkerSize = markerSize;
        (ErrorMinus, ErrorPlus) = ErrorBars.Copy(name, x.Count, errorMinus, errorPlus);
    }

    /// <summary>Legend text (empty: not in the legend).</summary>
    public string Name { get; }

    /// <summary>Line and marker colour.</summary>
    public PlotColor Color { get; }

    /// <summary>Marker drawn at each point.</summary>
    public MarkerShape Marker { get; }

    /// <summary>How the line is stroked.</summary>
    public LinePattern Pattern { get; }

    /// <summary>Line width in pixels at 800×600.</summary>
    public double LineWidth { get; }

    /// <summary>Marker diameter in pixels at 800×600.</summary>
    public double MarkerSize { get; }

    /// <summary>X coordinates, as given.</summary>
    public IReadOnlyList<double> X { get; }

    /// <summary>Y coordinates, as given.</summary>
    public IReadOnlyList<double> Y { get; }

    /// <summary>Distances of the error bars' lower ends below Y, or null for no error bars.</summary>
    public IReadOnlyList<double>? ErrorMinus { get; }

    /// <summary>Distances of the error bars' upper ends above Y, or null for no error bars.</summary>
    public IReadOnlyList<double>? ErrorPlus { get; }
}
