namespace DivCon.Skeletons.Sequences;

/// <summary>
/// One <see cref="SequenceSkeleton.ForEachAsync{T}"/> or <see cref="SequenceSkeleton.ForEachRangeAsync"/> call: the
/// chunk bookkeeping. The body gets one chunk's index range [from, to) at a time.
/// </summary>
/// <remarks>
/// Chunks c = 0..C−1 cover [c·g, min((c+1)·g, n)); W = ⌊m / g⌋ chunks form a window. State, all guarded by
/// <see cref="_gate"/>:
/// <list type="bullet">
/// <item><c>_done[c]</c>: chunk c has finished (its body ran or was skipped).</item>
/// <item><c>_frontier</c> f: the first chunk not done; every chunk below f is done.</item>
/// <item><c>_released</c>: chunks [0, _released) have been handed to the scheduler, each exactly once: _released only
/// grows, and only under the gate, and the range [old, new) of one growth is started by the one thread that grew it.</item>
/// <item><c>_running</c>: chunks released and not yet finished. The run completes when _running is 0 and no chunk will be
/// released any more (all released, or stopped by a fault or cancellation); the thread that sees this under the gate
/// completes the task once. A chunk whose task the scheduler refused to queue is taken out of _running again, with
/// the scheduler's exception as a fault (so a refusing scheduler faults the run instead of leaving it running).</item>
/// </list>
/// The mode is one of the three defined values (checked by <see cref="SequenceSkeleton"/>): an undefined one would
/// release no chunk after the first window.
/// Window invariant: None releases every chunk at once; Sliding keeps _released ≤ f + W, so chunk c starts only once
/// chunks [0, c − W] are done, hence element j ≥ m starts only after element j − m (in chunk ≤ c − W, since
/// (c−W+1)·g ≤ j − m + 1 as W·g ≤ m) has finished; Static releases the next W chunks only when f == _released (every
/// released chunk is done: a barrier per window).
/// </remarks>
internal sealed class SequenceRun
{
    private readonly int _length;
    private readonly Action<int, int> _body;
    private readonly TaskScheduler _scheduler;
    private readonly WindowMode _mode;
    private readonly int _grain;
    private readonly int _windowChunks;
    private readonly int _chunkCount;
    private readonly CancellationToken _cancellationToken;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _gate = new();
    private readonly bool[] _done;
    private readonly List<Exception> _faults = [];
    private int _frontier;
    private int _released;
    private int _running;
    private bool _stopped;
    private bool _skipped;

    public SequenceRun(int length, Action<int, int> body, TaskScheduler scheduler, WindowMode mode, int grain, int window, CancellationToken cancellationToken)
    {
        _length = length;
        _body = body;
        _scheduler = scheduler;
        _mode = mode;
        _grain = grain;
        _chunkCount = (int)((length + (long)grain - 1) / grain);
        _windowChunks = mode == WindowMode.None ? _chunkCount : Math.Max(1, window / grain);
        _cancellationToken = cancellationToken;
        _done = new bool[_chunkCount];
    }

    public Task Completion => _completion.Task;

    public void Start()
    {
        int from, to;
        lock (_gate)
        {
            from = 0;
            to = _released = Math.Min(_chunkCount, _windowChunks);
            _running = to;
        }

        Launch(from, to);
    }

    private void Launch(int from, int to)
    {
        for (int c = from; c < to; c++)
        {
            int chunk = c;
            try
            {
                Task.Factory.StartNew(() => RunChunk(chunk), CancellationToken.None, TaskCreationOptions.DenyChildAttach, _scheduler);
            }
            catch (Exception e)
            {
                // The scheduler refused (e.g. disposed): chunks c..to−1 were counted in _running but will never run.
                // Take them out, stop the run and let it complete with the fault, as the D&C skeleton does.
                OnLaunchFailed(to - c, e);
                return;
            }
        }
    }

    private void OnLaunchFailed(int unlaunched, Exception fault)
    {
        bool complete;
        lock (_gate)
        {
            _running -= unlaunched;
            _faults.Add(fault);
            Volatile.Write(ref _stopped, true);
            complete = _running == 0;
        }

        if (complete)
        {
            Complete();
        }
    }

    private void RunChunk(int chunk)
    {
        Exception? fault = null;
        // A chunk released before a fault elsewhere may still start; it is skipped (its elements are not processed,
        // the run faults anyway). A chunk that sees the token canceled is skipped and makes the run canceled.
        bool canceled = _cancellationToken.IsCancellationRequested;
        if (!canceled && !Volatile.Read(ref _stopped))
        {
            int end = (int)Math.Min((long)(chunk + 1) * _grain, _length);
            try
            {
                _body(chunk * _grain, end);
            }
            catch (Exception e)
            {
                fault = e;
            }
        }

        Finish(chunk, fault, canceled);
    }

    private void Finish(int chunk, Exception? fault, bool canceled)
    {
        int from, to;
        bool complete;
        lock (_gate)
        {
            _done[chunk] = true;
            _running--;
            if (fault is not null)
            {
                _faults.Add(fault);
            }

            _skipped |= canceled;
            if (fault is not null || canceled || _cancellationToken.IsCancellationRequested)
            {
                Volatile.Write(ref _stopped, true);
            }

            while (_frontier < _chunkCount && _done[_frontier])
            {
                _frontier++;
            }

            from = to = _released;
            if (!_stopped)
            {
                int target = _mode switch
                {
                    WindowMode.Sliding => Math.Min(_chunkCount, _frontier + _windowChunks),
                    WindowMode.Static when _frontier == _released => Math.Min(_chunkCount, _released + _windowChunks),
                    _ => _released,
                };
                to = _released = target;
                _running += to - from;
            }

            complete = _running == 0 && (_stopped || _released == _chunkCount);
        }

        if (complete)
        {
            Complete();
        }
        else
        {
            Launch(from, to);
        }
    }

    // Called once: by the one thread that saw _running reach 0 with nothing left to release (under the gate). After
    // that no chunk is running and none will be released, so _faults is no longer written.
    private void Complete()
    {
        if (_faults.Count > 0)
        {
            _completion.TrySetException(_faults);
        }
        else if (_skipped || _released < _chunkCount)
        {
            _completion.TrySetCanceled(_cancellationToken);
        }
        else
        {
            _completion.TrySetResult();
        }
    }
}
