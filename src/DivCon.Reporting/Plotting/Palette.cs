namespace DivCon.Reporting.Plotting;

/// <summary>The default series colours: the Okabe–Ito palette (distinguishable under the common forms of colour
/// blindness), ordered so that the first colours contrast most on white, then four colours from Paul Tol's muted
/// scheme (wine, grey, teal, olive) so that twelve series (the harness has eleven schemes) never share a colour.</summary>
public static class Palette
{
    private static readonly PlotColor[] s_colors =
    [
        PlotColor.FromHex("#0072B2"), // blue
        PlotColor.FromHex("#D55E00"), // vermillion
        PlotColor.FromHex("#009E73"), // bluish green
        PlotColor.FromHex("#E69F00"), // orange
        PlotColor.FromHex("#CC79A7"), // reddish purple
        PlotColor.FromHex("#56B4E9"), // sky blue
        PlotColor.FromHex("#000000"), // black
        PlotColor.FromHex("#F0E442"), // yellow
        PlotColor.FromHex("#882255"), // wine
        PlotColor.FromHex("#999999"), // grey
        PlotColor.FromHex("#44AA99"), // teal
        PlotColor.FromHex("#999933"), // olive
    ];

    /// <summary>The palette colours in order.</summary>
    public static IReadOnlyList<PlotColor> Colors => s_colors;

    /// <summary>The colour of the series at <paramref name="index"/> (cycles after the last colour).</summary>
    public static PlotColor Get(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        return s_colors[index % s_colors.Length];
    }
}
