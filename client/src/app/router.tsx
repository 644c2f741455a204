import { BrowserRouter, useRoutes } from 'react-router-dom';
import { appRoutes } from './routes.tsx';

function Screens() {
  return useRoutes(appRoutes);
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <Screens />
    </BrowserRouter>
  );
}
