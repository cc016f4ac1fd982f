//! The interactive map of a map block on Leaflet, with its stylesheet: a chunk of its own, fetched
//! once per page (through `map-rules`' shared loader) and only after the visitor agreed to
//! contact the tile server. Leaflet sets its positions through the CSSOM, which the page's
//! Content-Security-Policy allows, and its stylesheet is linked from this origin.

import 'leaflet/dist/leaflet.css';
import * as L from 'leaflet';
import markerUrl from './map-marker.svg';
import { leafletMapOptions, markerIconGeometry, type MapProps } from './map-rules';

export interface InteractiveMap {
  /** Applies new props (the editor's live preview, already debounced). */
  update(props: MapProps): void;
  destroy(): void;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function createInteractiveMap(container: HTMLElement, initial: MapProps, open: (url: string) => void): InteractiveMap {
  const { size, anchor } = markerIconGeometry();
  const icon = L.icon({ iconUrl: markerUrl, iconSize: size, iconAnchor: anchor });
  let props = initial;
  const options = leafletMapOptions(props);
  // The zoom control is added and removed here, so the options can switch it.
  const map = L.map(container, { ...options, zoomControl: false });
  let zoomControl: L.Control.Zoom | undefined;
  // Leaflet writes the credit as HTML: the owner's text is escaped first.
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  let tiles = L.tileLayer(props.tileUrl, { attribution: escapeHtml(props.attribution), maxZoom: options.maxZoom }).addTo(map);
  const marker = L.marker([props.markerLat, props.markerLng], {
    icon,
    alt: `Marker: ${props.markerLabel}`,
    title: props.markerLabel,
    keyboard: true,
    draggable: props.markerDraggable,
  }).addTo(map);
  marker.on('click keypress', (event) => {
    const key = (event as L.LeafletKeyboardEvent).originalEvent?.key;
    if (event.type === 'keypress' && key !== 'Enter' && key !== ' ') return;
    if (props.linkOnClick && props.mapsUrl !== null) open(props.mapsUrl);
  });

  const applyInteraction = (next: MapProps): void => {
    const wanted = leafletMapOptions(next);
    if (wanted.dragging) map.dragging.enable();
    else map.dragging.disable();
    if (wanted.scrollWheelZoom) map.scrollWheelZoom.enable();
    else map.scrollWheelZoom.disable();
    if (wanted.keyboard) map.keyboard.enable();
    else map.keyboard.disable();
    if (wanted.zoomControl && zoomControl === undefined) {
      zoomControl = L.control.zoom().addTo(map);
    } else if (!wanted.zoomControl && zoomControl !== undefined) {
      zoomControl.remove();
      zoomControl = undefined;
    }
    if (next.markerDraggable) marker.dragging?.enable();
    else marker.dragging?.disable();
  };

  applyInteraction(props);

  return {
    update(next) {
      if (next.tileUrl !== props.tileUrl || next.attribution !== props.attribution) {
        tiles.remove();
        tiles = L.tileLayer(next.tileUrl, { attribution: escapeHtml(next.attribution), maxZoom: options.maxZoom }).addTo(map);
      }
      map.setView([next.lat, next.lng], leafletMapOptions(next).zoom);
      marker.setLatLng([next.markerLat, next.markerLng]);
      applyInteraction(next);
      props = next;
    },
    destroy() {
      map.remove();
    },
  };
}
