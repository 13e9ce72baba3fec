using DivCon.Reporting.Plotting.Rendering;

namespace DivCon.Reporting.Plotting;

/// <summary>A figure: a plain data model (title, axes, series) that renders itself to PNG. What is drawn is
/// exactly what the model holds, so a caller can write the model's values as JSON next to the PNG. Text sizes are
/// 16 px (title), 13 px (axis labels), 11 px (ticks) at 800×600 and grow with larger images. A figure with no
/// drawable data renders its frame with the message "No data" rather than failing. Text is drawn with DivCon's
/// own stroke font, which covers printable ASCII plus ± · ° µ × ² ³ Δ − –; any other character shows as a box.
/// A figure is not thread-safe while it is being changed; rendering does not change it.</summary>
public abstract partial class Figure
{
    /// <summary>The width the text sizes are designed for (larger images scale text and lines up).</summary>
    public const int DefaultWidth = 800;

    /// <summary>The height the text sizes are designed for.</summary>
    public const int DefaultHeight = 600;

    /// <summary>The smallest accepted image width in pixels.</summary>
    public const int MinWidth = 160;

    /// <summary>The smallest accepted image height in pixels.</summary>
    public const int MinHeight = 120;

    private string _title;

    private protected Figure(string title)
    {
        ArgumentNullException.ThrowIfNull(title);
        _title = title;
    }

    /// <summary>Text above the plot (may be empty).</summary>
    public string Title
    {
        get => _title;
        set => _title = value ?? throw new ArgumentNullException(nameof(value), "A title may be empty but not null.");
    }

    /// <summary>Whether the legend is drawn (only entries with a non-empty name appear; no entries, no legend).
    /// It goes in the corner of the plot area that covers the least data, or right of the plot when every corner
    /// would cover data.</summary>
    public bool ShowLegend { get; set; } = true;

    /// <summary>Renders the figure to a <paramref name="width"/> × <paramref name="height"/> image.</summary>
    /// <exception cref="ArgumentOutOfRangeException">Size below <see cref="MinWidth"/> × <see cref="MinHeight"/>
    /// or above <see cref="RgbaImage.MaxSize"/>.</exception>
    /// <exception cref="InvalidOperationException">The model cannot be drawn as configured (e.g. a log axis with
    /// limits ≤ 0); the message says what to change.</exception>
    public RgbaImage Render(int width, int height) => Render(width, height, out _);

    /// <summary>Renders the figure and encodes it as PNG (8-bit RGBA).</summary>
    public byte[] RenderPng(int width = DefaultWidth, int height = DefaultHeight) => Render(width, height).EncodePng();

    /// <summary>Renders the figure and writes it as a PNG file at <paramref name="path"/> (overwriting it).</summary>
    public void SavePng(string path, int width = DefaultWidth, int height = DefaultHeight)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        byte[] png = RenderPng(width, height);
        File.WriteAllBytes(path, png);
    }

    /// <summary>Whether anything can be drawn (at least one value that maps onto the axes).</summary>
    internal abstract bool HasData { get; }

    /// <summary>The axes with their final ranges.</summary>
    internal abstract (AxisSpec X, AxisSpec Y) BuildAxes();

    /// <summary>The legend rows, in display order.</summary>
    internal abstract IReadOnlyList<LegendEntry> LegendEntries();

    /// <summary>Draws the data; the canvas is clipped to the plot area.</summary>
    internal abstract void DrawData(Canvas canvas, PlotLayout layout);

    /// <summary>Pixel rectangles covered by data, which the legend should avoid.</summary>
    internal abstract IEnumerable<RectD> Obstacles(PlotLayout layout);

    /// <summary>Whether vertical grid lines are drawn at the ticks of a numeric x axis.</summary>
    internal virtual bool VerticalGrid => true;

    internal RgbaImage Render(int width, int height, out PlotLayout layout)
    {
        if (width < MinWidth || height < MinHeight || width > RgbaImage.MaxSize || height > RgbaImage.MaxSize)
        {
            throw new ArgumentOutOfRangeException(nameof(width),
                $"Image size must be {MinWidth}–{RgbaImage.MaxSize} × {MinHeight}–{RgbaImage.MaxSize} pixels, got {width}x{height}.");
        }

        var image = new RgbaImage(width, height, PlotColor.White);
        var canvas = new Canvas(image);
        (AxisSpec xSpec, AxisSpec ySpec) = BuildAxes();
        IReadOnlyList<LegendEntry> legend = ShowLegend ? [.. LegendEntries().Where(e => e.Name.Length > 0)] : [];
        layout = ComputeLayout(width, height, xSpec, ySpec, legend);
        Draw(canvas, layout, xSpec, ySpec, legend);
        return image;
    }

    /// <summary>The displayed range of a numeric axis: the fixed limits if set, otherwise the span of the
    /// drawable <paramref name="values"/> padded by <paramref name="padFraction"/>, or [0, 1] ([1, 10] on a log
    /// axis) when there are none.</summary>
    private protected static (double Min, double Max) RangeOf(Axis axis, IEnumerable<double> values, double padFraction)
    {
        double lo = double.PositiveInfinity, hi = double.NegativeInfinity;
        foreach (double v in values)
        {
            lo = Math.Min(lo, v);
            hi = Math.Max(hi, v);
        }

        (double Min, double Max) data = lo > hi
            ? (axis.Scale == AxisScale.Linear ? (0.0, 1.0) : (1.0, 10.0))
            : AxisMap.PaddedRange(axis.Scale, lo, hi, padFraction);
        return (axis.Min ?? data.Min, axis.Max ?? data.Max);
    }

    /// <summary>A value range starting or ending at zero (bars grow from zero): [min(0, lo), max(0, hi)] padded
    /// by 5 % away from zero and extended to the next tick step, unless the axis has fixed limits.</summary>
    private protected static (double Min, double Max) ZeroBasedRange(Axis axis, IEnumerable<double> values)
    {
        if (axis.Scale != AxisScale.Linear)
        {
            throw new InvalidOperationException($"Axis '{axis.Label}': bars and stacked areas grow from zero, so their value axis must be linear.");
        }

        double lo = 0, hi = 0;
        foreach (double v in values)
        {
            lo = Math.Min(lo, v);
            hi = Math.Max(hi, v);
        }

        if (hi - lo <= 0)
        {
            hi = 1;
        }

        double span = hi - lo;
        double step = TickGenerator.NiceStep(span * 1.05, 8);
        double min = lo < 0 ? Math.Floor((lo - 0.05 * span) / step) * step : 0;
        double max = hi > 0 ? Math.Ceiling((hi + 0.05 * span) / step) * step : 0;
        return (axis.Min ?? min, axis.Max ?? max);
    }
}
