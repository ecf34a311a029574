/** The reference stack's files for the tile benchmark: mapfile, MapServer config, MapCache, nginx, wrk script. */
import { GEO_NAMESPACE } from '../soap/schema/model.js';

export function tileBenchConfigs(dir: string): Record<string, string> {
  return {
    'pts.map': `MAP
  EXTENT -20037508.34 -20037508.34 20037508.34 20037508.34
  SIZE 256 256
  UNITS METERS
  IMAGECOLOR 255 255 255
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_title" "pts" "wms_srs" "EPSG:3857" "wms_enable_request" "*" END END
  OUTPUTFORMAT NAME "png" DRIVER AGG/PNG MIMETYPE "image/png" IMAGEMODE RGBA EXTENSION "png" TRANSPARENT ON FORMATOPTION "COMPRESSION=6" END
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
  LAYER NAME "pts" TYPE POINT STATUS ON
    CONNECTIONTYPE OGR CONNECTION "${dir}/pts.geojson"
    PROJECTION "init=epsg:4326" END
    CLASS STYLE SYMBOL "circle" SIZE 8 COLOR 0 122 194 OUTLINECOLOR 255 255 255 END END
  END
END
`,
    'mapserver.conf': `CONFIG
  ENV
    MS_MAP_PATTERN "^${dir}/"
    MS_MAPFILE "${dir}/pts.map"
  END
END
`,
    'mapcache.xml': `<mapcache>
  <cache name="disk" type="disk" layout="template"><template>${dir}/cache/{z}/{inv_y}/{x}.png</template><symlink_blank/></cache>
  <source name="wms" type="wms"><getmap><params><FORMAT>image/png</FORMAT><LAYERS>pts</LAYERS><TRANSPARENT>true</TRANSPARENT></params></getmap>
    <http><url>http://127.0.0.1:8089/wms?</url><connection_timeout>30</connection_timeout></http></source>
  <tileset name="pts"><source>wms</source><cache>disk</cache><grid>GoogleMapsCompatible</grid><format>PNG</format><metatile>4 4</metatile><metabuffer>10</metabuffer></tileset>
  <service type="gmaps" enabled="true"/>
</mapcache>
`,
    'nginx.conf': `worker_processes 2;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/ntmp; proxy_temp_path ${dir}/ntmp; fastcgi_temp_path ${dir}/ntmp;
  uwsgi_temp_path ${dir}/ntmp; scgi_temp_path ${dir}/ntmp;
  sendfile on; open_file_cache max=20000 inactive=60s;
  server {
    listen 127.0.0.1:8089;
    location /wms { include /etc/nginx/fastcgi_params; fastcgi_pass unix:${dir}/mapserv.sock; }
    location /tiles/ { alias ${dir}/cache/; }
    location /ours/ { alias ${dir}/ours-static/; }
  }
}
`,
    'rand.lua': `local p = {}; for l in io.lines(os.getenv("PATHS")) do p[#p+1] = l end
math.randomseed(os.time())
request = function() return wrk.format("GET", p[math.random(#p)]) end
`,
    // The same, each connection waiting $DELAY_MS after each answer before its next request: an offered load
    // below both servers' capacity, so their tails compare answering, not queueing for the cores.
    'paced.lua': `local p = {}; for l in io.lines(os.getenv("PATHS")) do p[#p+1] = l end
local wait = tonumber(os.getenv("DELAY_MS"))
math.randomseed(os.time())
request = function() return wrk.format("GET", p[math.random(#p)]) end
delay = function() return wait end
`,
    // GetMapTile over SOAP for the same z/y/x lines, POSTed to $SOAP_PATH. Requests are formatted once, in
    // init (wrk sets the Host header before calling it).
    'soap.lua': `local r = {}
init = function(args)
  local path = os.getenv("SOAP_PATH")
  local headers = { ["Content-Type"] = "text/xml; charset=utf-8", ["SOAPAction"] = '""' }
  for l in io.lines(os.getenv("PATHS")) do
    local z, y, x = l:match("(%d+)/(%d+)/(%d+)$")
    local body = '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><tns:GetMapTile xmlns:tns="${GEO_NAMESPACE}"><MapName>Layers</MapName><Level>' .. z .. '</Level><Row>' .. y .. '</Row><Column>' .. x .. '</Column></tns:GetMapTile></soap:Body></soap:Envelope>'
    r[#r+1] = wrk.format("POST", path, headers, body)
  end
  math.randomseed(os.time())
end
request = function() return r[math.random(#r)] end
`,
    // The REST tiles the same way (requests formatted once), for the SOAP comparison.
    'rest.lua': `local r = {}
init = function(args)
  for l in io.lines(os.getenv("PATHS")) do r[#r+1] = wrk.format("GET", l) end
  math.randomseed(os.time())
end
request = function() return r[math.random(#r)] end
`,
  };
}
