namespace DivCon.Reporting.Plotting;

/// <summary>How a line is stroked.</summary>
public enum LinePattern
{
    /// <summary>A continuous line.</summary>
    Solid,

    /// <summary>Dashes about four line widths long.</summary>
    Dashed,

    /// <summary>Dots one line width apart.</summary>
    Dotted,

    /// <summary>No line: markers only (a scatter plot).</summary>
    None,
}
