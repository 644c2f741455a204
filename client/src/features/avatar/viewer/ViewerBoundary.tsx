import { Component, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** Called once per crash (the stage resets the saved avatar: spec §2 error boundary). */
  onError?: (error: Error) => void;
  fallback: (retry: () => void) => ReactNode;
}

/**
 * Keeps a crashing 3D view (a renderer or engine error thrown while rendering) inside its own
 * box, so the chat around it keeps working.
 */
export class ViewerBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error('3D viewer crashed', error);
    this.props.onError?.(error);
  }

  override render() {
    if (this.state.error) return this.props.fallback(() => this.setState({ error: null }));
    return this.props.children;
  }
}
